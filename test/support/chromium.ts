// Debian's chromium, driven by playwright-core (which downloads no browser): where it is and how the tests start it.
export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
