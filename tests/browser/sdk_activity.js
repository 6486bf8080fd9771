// A tiny Activity made of the real Embedded App SDK (npm, the version package-lock.json pins):
// tests/test_discord_client.py bundles it with esbuild and runs it inside Discord's stand-in
// (tests/discord_client.py), to prove the stand-in speaks the protocol as the SDK expects.
// Each step's result goes to window.steps for the test to read; CLIENT_ID is esbuild's --define.
import {DiscordSDK, Events} from "@discord/embedded-app-sdk";

const steps = (window.steps = {updates: []});
const sdk = new DiscordSDK(CLIENT_ID);
const onUpdate = (event) => steps.updates.push(event.participants.map((p) => p.id));

async function run() {
  steps.query = {instance: sdk.instanceId, channel: sdk.channelId, guild: sdk.guildId,
                 location: sdk.locationId, platform: sdk.platform};
  await sdk.ready();
  steps.ready = true;
  console.info("the activity is ready"); // the SDK forwards the console once ready
  const {code} = await sdk.commands.authorize({client_id: CLIENT_ID, response_type: "code",
                                               state: "", prompt: "none", scope: ["identify"]});
  steps.code = code;
  // The Activity's server exchanges the code with the client secret (here: the test's server)
  const exchanged = await fetch("/token", {method: "POST", body: code});
  const {access_token} = await exchanged.json();
  steps.forged = await sdk.commands.authenticate({access_token: "forged"}).catch((e) => e);
  steps.auth = await sdk.commands.authenticate({access_token});
  steps.locale = (await sdk.commands.userSettingsGetLocale()).locale;
  const {participants} = await sdk.commands.getInstanceConnectedParticipants();
  steps.participants = participants.map((p) => [p.id, p.username]);
  await sdk.subscribe(Events.ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE, onUpdate);
  steps.subscribed = true;
}

window.unsubscribe = () => sdk.unsubscribe(Events.ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE, onUpdate);
run().catch((error) => { steps.error = String(error?.message ?? JSON.stringify(error)); });
