// Lighthouse's settings for `make lighthouse` (bench/lighthouse.py passes this file with
// --config-path and names the form factor in LIGHTHOUSE_FORM).
//
// - "desktop": Lighthouse's own desktop preset (1350×940, desktop user agent).
// - "tablet": a tablet held in landscape at the table, 1024×768 at two device pixels per CSS
//   pixel, touch, with the mobile user agent.
//
// The board polls every 600 to 800 ms for live updates, so the network is never quiet for Lighthouse's
// default 1000 ms and every board run would wait out the 45 s load limit (and warn that its
// results may be incomplete). A poll answers in a few milliseconds, so 500 ms of quiet between
// two polls is a load that has truly finished.
import desktop from 'lighthouse/core/config/desktop-config.js';
import * as constants from 'lighthouse/core/config/constants.js';

const form = process.env.LIGHTHOUSE_FORM || 'desktop';
const common = {
  onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
  networkQuietThresholdMs: 500,
};
const forms = {
  desktop: desktop.settings,
  tablet: {
    formFactor: 'mobile',
    throttling: constants.throttling.mobileSlow4G,
    screenEmulation: {mobile: true, width: 1024, height: 768, deviceScaleFactor: 2, disabled: false},
    emulatedUserAgent: constants.userAgents.mobile,
  },
};
if (!(form in forms)) {
  throw new Error(`LIGHTHOUSE_FORM must be one of ${Object.keys(forms).join(', ')}, not ${form}`);
}

export default {
  extends: 'lighthouse:default',
  settings: {...forms[form], ...common},
};
