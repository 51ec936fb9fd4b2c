#!/usr/bin/env bash
# Starts the gateway as a user would (`npm start`, no DATABASE_URL: embedded PostgreSQL),
# waits for /ready, stops it with SIGINT (Ctrl-C) and checks that nothing is left running.
set -euo pipefail
cd "$(dirname "$0")/../.."
log=$(mktemp)
# debug: the job-queue worker's "connected" line is a debug line.
LOG_LEVEL=debug setsid npm start >"$log" 2>&1 &
group=$!
cleanup() { kill -KILL -- "-$group" 2>/dev/null || true; }
trap cleanup EXIT

ready=""
for _ in $(seq 1 120); do
  if curl -fsS http://127.0.0.1:3000/ready >/dev/null 2>&1; then ready=yes; break; fi
  sleep 1
done
if [ -z "$ready" ]; then
  echo "gateway did not become ready; its output:"; cat "$log"; exit 1
fi
curl -fsS http://127.0.0.1:3000/health
echo
curl -fsS -o /dev/null -w 'GET /api/v1/does-not-exist -> %{http_code}\n' http://127.0.0.1:3000/api/v1/does-not-exist || true
grep -q 'The gateway is running' "$log" || { sleep 5; grep -q 'The gateway is running' "$log"; }
# The scheduler's job-queue worker (graphile-worker: webhook deliveries) connected to the same
# embedded server and is listening for jobs.
worker_up() { grep -E '^\[scheduler\].*Worker connected and looking for jobs' "$log"; }
worker_up || { sleep 5; worker_up; } || { echo "the scheduler's job-queue worker did not connect; its output:"; cat "$log"; exit 1; }

kill -INT -- "-$group"
for _ in $(seq 1 40); do kill -0 "$group" 2>/dev/null || break; sleep 0.5; done
if kill -0 "$group" 2>/dev/null; then echo "npm start did not exit after SIGINT"; cat "$log"; exit 1; fi

sleep 1
left=$(ps -eo pid,args | grep -E 'apps/(api|scheduler|provider-sim)/src/main.ts|tools/start/|\.data/postgres' | grep -v grep || true)
if [ -n "$left" ]; then echo "processes left behind:"; echo "$left"; cat "$log"; exit 1; fi
for port in 3000 3002 4010 4200 54329; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "port $port still open"; exit 1; fi
done
echo "embedded smoke test passed: ready, stopped cleanly, nothing left running"
