export { waitFor } from '@gateway/platform/testing';
