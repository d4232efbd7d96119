import { availableParallelism } from 'node:os';
import { AccountDeletionService } from '../domain/accounts/account-deletion.ts';
import { AccountNotices } from '../domain/accounts/account-notices.ts';
import { AccountService } from '../domain/accounts/accounts.ts';
import { CodeSignIn } from '../domain/accounts/code-sign-in.ts';
import { PhoneChangeService } from '../domain/accounts/phone-change.ts';
import { PinChangeService } from '../domain/accounts/pin-change.ts';
import { PinHasher } from '../domain/accounts/pin-hasher.ts';
import { RecoveryCodeService } from '../domain/accounts/recovery-codes.ts';
import { RecoverySignIn } from '../domain/accounts/recovery-sign-in.ts';
import { RestSignIn, SignIn } from '../domain/accounts/sign-in.ts';
import { OtpService } from '../domain/codes/otp.ts';
import { SendQueue } from '../domain/messaging/send-queue.ts';
import { PasskeySignIn } from '../domain/passkeys/passkey-sign-in.ts';
import { PasskeyService } from '../domain/passkeys/passkeys.ts';
import { ApiUserService } from '../domain/profiles/api-users.ts';
import { AvatarService } from '../domain/profiles/avatars.ts';
import { ProfileService } from '../domain/profiles/profiles.ts';
import { RefreshTokenCodec } from '../domain/sessions/refresh-tokens.ts';
import { SessionService } from '../domain/sessions/sessions.ts';
import { SmsBreaker } from '../domain/sms-defence/breaker.ts';
import { CaptchaCheck } from '../domain/sms-defence/captcha-check.ts';
import { ChallengeService } from '../domain/sms-defence/challenges.ts';
import type { PersonCheck } from '../domain/sms-defence/person-check.ts';
import { SendDefence } from '../domain/sms-defence/send-defence.ts';
import { SiteverifyCaptcha } from '../providers/captcha/siteverify.ts';
import { SessionRotations } from '../storage/batches/session-rotations.ts';
import { appAttestationFor } from './app-attestation.ts';
import type { Foundation } from './foundation.ts';
import { phoneRiskService } from './phone-risk.ts';

/** The SMS defence's proof of a person: the operator's hosted CAPTCHA, or the proof-of-work challenge. */
function personCheck(f: Foundation): PersonCheck {
  const { config, db, clock } = f;
  const { captcha } = config;
  if (captcha) {
    const verifier = new SiteverifyCaptcha(captcha);
    const hostnames = captcha.hostnames ?? [new URL(config.authUrl).hostname];
    return new CaptchaCheck({
      db,
      clock,
      verifier,
      provider: captcha.provider,
      siteKey: captcha.siteKey,
      hostnames,
    });
  }
  return new ChallengeService({
    db,
    clock,
    hmacKey: f.keysFor('sms-challenges').current.toString('hex'),
    maxNumber: config.challengeMaxNumber,
  });
}

/** The SMS defence: the proof of a person, the country breaker, and what a send must pass. */
function smsDefence(f: Foundation) {
  const { config, db, clock, logger, metrics } = f;
  const challenges = personCheck(f);
  const breaker = new SmsBreaker({
    db,
    clock,
    logger,
    settings: config.smsBreaker,
    openCountries: metrics.smsBreakerOpen,
  });
  const attestation = appAttestationFor(f);
  const defence = new SendDefence({
    breaker,
    challenges,
    attestation,
    rateLimiter: f.rateLimiter,
    challengeMode: config.challengeMode,
    destinations: config.smsDestinations,
    dailyLimit: config.smsDailyLimit,
    logger,
    sends: metrics.otpSends,
    verifications: metrics.otpVerifications,
  });
  return { challenges, breaker, defence, attestation };
}

/** The ways in beside the PIN: recovery codes, passkeys and their sign-in, a code to the phone. */
function beyondThePin(
  f: Foundation,
  parts: {
    sessions: SessionService;
    accounts: AccountService;
    pins: PinHasher;
    notices: AccountNotices;
    otp: OtpService;
  },
) {
  const { config, db, clock, random, events, tokens, logger } = f;
  const { sessions, accounts, pins, notices, otp } = parts;
  const firstPartyClientId = config.firstPartyClientId;
  const { webauthn, signInMethods, enumerationProtection } = config;
  const recoveryCodes = new RecoveryCodeService({
    ...{ db, clock, random, events, sessions, accounts, pins, tokens, firstPartyClientId },
    ...{ enumerationProtection, notices, signInMethods, rateLimiter: f.rateLimiter },
    signIns: f.metrics.signIns,
    setKeys: f.keysFor('recovery-code-sets'),
  });
  const recoverySignIn = new RecoverySignIn({ clock, events, recoveryCodes, notices });
  const passkeys = new PasskeyService({
    db,
    clock,
    random,
    webauthn,
    sessions,
    events,
    notices,
    signInMethods,
  });
  const passkeySignIn = new PasskeySignIn({ db, clock, random, webauthn, signInMethods, logger });
  const codeSignIn = new CodeSignIn({ otp });
  const signIn = new SignIn({
    ...{ db, sessions, signInMethods },
    rest: new RestSignIn({ tokens, clock, firstPartyClientId }),
    signIns: f.metrics.signIns,
  });
  return { recoveryCodes, recoverySignIn, passkeys, passkeySignIn, codeSignIn, signIn };
}

/** The services of a person's account: codes, sessions, sign-in, profile, PIN, phone, deletion. */
export function identityServices(f: Foundation) {
  const { config, db, clock, random, events, tokens, messenger, logger } = f;
  const { challenges, breaker, defence, attestation } = smsDefence(f);
  const sendQueue = new SendQueue(logger);
  const phoneRisk = phoneRiskService(f);
  const otp = new OtpService({
    db,
    clock,
    random,
    messenger,
    testPhoneNumbers: config.testPhoneNumbers, // loadConfig refuses them in production
    codeKeys: f.keysFor('otp-codes'),
    enumerationProtection: config.enumerationProtection,
    defaultLanguage: config.defaultLanguage,
    defence,
    sendQueue,
    ...{ signInMethods: config.signInMethods, phoneRisk, logger },
  });
  const sessions = new SessionService({
    db,
    clock,
    random,
    events,
    refreshTokens: new RefreshTokenCodec(f.keysFor('refresh-successor'), f.keysFor('refresh-tag')),
    rotations: new SessionRotations(db),
  });
  // The process's share of the cores (WEB_CONCURRENCY processes share them all).
  const pins = new PinHasher(
    f.secrets.pinPepper,
    Math.max(1, Math.ceil(availableParallelism() / config.webConcurrency)),
    f.secrets.pinPepperFallback,
  );
  const accounts = new AccountService({
    ...{ db, clock, random, events, otp, pins, sessions, tokens },
    firstPartyClientId: config.firstPartyClientId,
    signInMethods: config.signInMethods,
    enumerationProtection: config.enumerationProtection,
  });
  const notices = new AccountNotices({ messenger, defaultLanguage: config.defaultLanguage, logger });
  const { recoveryCodes, recoverySignIn, passkeys, passkeySignIn, codeSignIn, signIn } = beyondThePin(f, {
    sessions,
    accounts,
    pins,
    notices,
    otp,
  });
  const profiles = new ProfileService({ db, clock, events });
  const deletion = new AccountDeletionService({ db, clock, events, sessions, accounts });
  const pinChange = new PinChangeService({
    ...{ db, clock, events, sessions, accounts, pins, notices },
    signInMethods: config.signInMethods,
  });
  const phoneChange = new PhoneChangeService({
    defaultLanguage: config.defaultLanguage,
    db,
    clock,
    events,
    otp,
    accounts,
    profiles,
    notices,
  });
  const apiUsers = new ApiUserService({ db, clock, profiles, deletion });

  const avatars = new AvatarService({ db, clock, profiles, baseUrl: config.baseUrl });
  return {
    otp,
    phoneRisk,
    defence,
    sendQueue,
    challenges,
    appAttestation: attestation,
    smsBreaker: breaker,
    sessions,
    accounts,
    signIn,
    passkeys,
    passkeySignIn,
    codeSignIn,
    recoveryCodes,
    recoverySignIn,
    profiles,
    deletion,
    pinChange,
    phoneChange,
    apiUsers,
    avatars,
  };
}
