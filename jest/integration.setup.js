// Integration tests talk to real Kafka and Postgres: a project-level testTimeout is ignored by Jest
// (it is a global option), so each integration test file gets its timeout here.
jest.setTimeout(120_000);
