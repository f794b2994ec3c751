// What the Activity page takes from Discord's Embedded App SDK: the real client inside
// Discord's iframe, and the SDK's own mock outside it (a browser tab, the tests).
export { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";
