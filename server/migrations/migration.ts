// One version of the schema: its statements run in one transaction, then its row in schema_migrations.
export interface Migration {
  version: number;
  name: string;
  statements: string[];
}
