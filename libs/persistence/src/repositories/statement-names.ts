/**
 * Stable prepared-statement names per SQL text for list queries whose text depends on which filters
 * are present: a bounded set (one per filter combination), each planned once per connection.
 */
export function statementNamer(prefix: string): (text: string) => string {
  const names = new Map<string, string>();
  return (text) => {
    let name = names.get(text);
    if (!name) {
      name = `${prefix}_${names.size}`;
      names.set(text, name);
    }
    return name;
  };
}
