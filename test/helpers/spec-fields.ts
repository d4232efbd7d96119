/** Spec "User (REST surface)": every field, sorted, as Object.keys(...).sort() gives them. */
export const REST_USER_FIELDS = [
  'avatar_url',
  'bio',
  'country',
  'created_at',
  'handle',
  'id',
  'kyc_country',
  'kyc_status',
  'kyc_verified_at',
  'language',
  'name',
  'phone',
  'phone_verified',
  'updated_at',
];
