export * from './fact-report';
