// The usage of `callsign users import`: in the users group's help, and in the import's own errors.
export const USERS_IMPORT_HELP = `  users import FILE --format firebase|supabase|jsonl [--dry-run] [--emit-events] [--json]
                                   bring accounts from a Firebase export, Supabase's auth.users as JSON Lines,
                                   or Callsign's own JSON Lines; each person's first sign-in sets their PIN`;
