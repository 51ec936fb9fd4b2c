// Loaded with Node's own require (openapi-responses.ts), outside Jest's module registry, which is
// new for every test file: this one Map lives as long as the jest worker process does.
module.exports = new Map();
