/** Recognisable secrets the tests use: no output item, error or logged line may contain them. */
export const API_KEY = 'sk_live_SECRETKEY_4d9f2a';
export const OAUTH_TOKEN = 'scapp_SECRETTOKEN_7c1e0b';
