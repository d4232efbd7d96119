// oidc-provider ships no types; the comparison script uses a handful of its calls.
declare module 'oidc-provider';
