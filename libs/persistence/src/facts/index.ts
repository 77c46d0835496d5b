export * from './fact-report';
export * from './xbrl-facts.table';
export * from './xbrl-facts.projection';
export * from './xbrl-facts.repository';
