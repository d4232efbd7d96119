// The name a new passkey gets when the person gives none, so that a list of passkeys says which is which
// (renamable as any other name).
//
// - Where the authenticator names itself by a known AAGUID (a passkey manager, a platform authenticator, a
//   security key), its name: "Google Password Manager", "iCloud Keychain", "Windows Hello".
// - Otherwise the browser and system that made it, read from the user agent: "Chrome · Android".
// - Otherwise "Passkey". Browsers that hide the AAGUID send zeros, which name nothing.

/** The AAGUIDs of authenticators people meet most, as the passkey providers publish them. */
const KNOWN_AUTHENTICATORS: Record<string, string> = {
  'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4': 'Google Password Manager',
  'adce0002-35bc-c60a-648b-0b25f1f05503': 'Chrome on Mac',
  'fbfc3007-154e-4ecc-8c0b-6e020557d7bd': 'iCloud Keychain',
  'dd4ec289-e01d-41c9-bb89-70fa845d4bf2': 'iCloud Keychain',
  '08987058-cadc-4b81-b6e1-30de50dcbe96': 'Windows Hello',
  '9ddd1817-af5a-4672-a2b9-3e3dd95000a9': 'Windows Hello',
  '6028b017-b1d4-4c02-b4b3-afcdafc96bb2': 'Windows Hello',
  '53414d53-554e-4700-0000-000000000000': 'Samsung Pass',
  'bada5566-a7aa-401f-bd96-45619a55120d': '1Password',
  'd548826e-79b4-db40-a3d8-11116f7e8349': 'Bitwarden',
  '531126d6-e717-415c-9320-3d9aa6981239': 'Dashlane',
  '50726f74-6f6e-5061-7373-50726f746f6e': 'Proton Pass',
  'fdb141b2-5d84-443e-8a35-4698c205a502': 'KeePassXC',
  'cb69481e-8ff7-4039-93ec-0a2729a154a8': 'YubiKey 5',
  'ee882879-721c-4913-9775-3dfcce97072a': 'YubiKey 5',
  'a4e9fc6d-4cbe-4758-b8ba-37598bb5bbaa': 'YubiKey 5',
};

export const UNNAMED_PASSKEY = 'Passkey';

/** The browser, by the first of these its user agent names (order matters: Edge also says Chrome). */
const BROWSERS: Array<[RegExp, string]> = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/OPR\//, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|HeadlessChrome\//, 'Chrome'],
  [/Version\/[\d.]+.*Safari\//, 'Safari'],
];

/** The system, likewise (Android and iOS first: their user agents also name Linux and Mac OS X). */
const SYSTEMS: Array<[RegExp, string]> = [
  [/Android/, 'Android'],
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/CrOS/, 'ChromeOS'],
  [/Windows/, 'Windows'],
  [/Macintosh|Mac OS X/, 'Mac'],
  [/Linux/, 'Linux'],
];

const firstMatch = (ua: string, table: Array<[RegExp, string]>) =>
  table.find(([pattern]) => pattern.test(ua))?.[1];

/** "Chrome · Android" from a user agent; undefined when it names neither. */
export function deviceOfUserAgent(userAgent: string | undefined): string | undefined {
  if (!userAgent) return undefined;
  const ua = userAgent.slice(0, 512);
  const parts = [firstMatch(ua, BROWSERS), firstMatch(ua, SYSTEMS)].filter((p) => p !== undefined);
  return parts.length ? parts.join(' · ') : undefined;
}

/** The name of a new passkey the person did not name. */
export function passkeyNameOf(made: { aaguid?: string; userAgent?: string }): string {
  const known = made.aaguid ? KNOWN_AUTHENTICATORS[made.aaguid.toLowerCase()] : undefined;
  return known ?? deviceOfUserAgent(made.userAgent) ?? UNNAMED_PASSKEY;
}
