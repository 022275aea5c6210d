// The API client: the token lives in this tab's sessionStorage and leaves only as an
// Authorization header (never in a URL). Every caller gets a Response or an Error.

export const API = "/api/v1";
const TOKEN_KEY = "spool-token";

export const token = () => sessionStorage.getItem(TOKEN_KEY);
export const setToken = (value) => sessionStorage.setItem(TOKEN_KEY, value);
export const clearToken = () => sessionStorage.removeItem(TOKEN_KEY);

/** Told when a request is refused for its token (the page then asks to sign in). */
let onSignedOut = () => {};
export function whenSignedOut(handler) {
  onSignedOut = handler;
}

export async function call(path, init = {}) {
  const headers = { authorization: `Bearer ${token()}`, ...(init.headers || {}) };
  const response = await fetch(path, { ...init, headers, cache: "no-store", credentials: "omit" });
  if (response.status === 401) {
    clearToken();
    onSignedOut();
    throw new Error("signed out: the token was refused");
  }
  if (!response.ok && response.status !== 206) {
    let message = `${response.status}`;
    try {
      const body = await response.json();
      message = `${response.status} ${body.error.code}: ${body.error.message}`;
    } catch {}
    throw new Error(message);
  }
  return response;
}

export async function getJson(path, init) {
  return (await call(path, init)).json();
}

export const captureUrl = (id) => `${API}/captures/${id}`;
export const streamUrl = (id, stream) => `${API}/captures/${id}/streams/${stream}`;
