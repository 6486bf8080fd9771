// The game window: Discord's Embedded App SDK signs the player in (authorize, the server's
// exchange, authenticate), then every move is a command the server runs as in chat.
import { DiscordSDK } from "@discord/embedded-app-sdk";
import { type Game, type Reply, type Session, Refused, relocate, run, share, signIn } from "./api";
import { DELETE, ENTER, drawBoard, drawKeyboard, element } from "./board";

// The games the window offers: the command, and its name (a game's own, or the window's word).
const GAMES: [string, keyof Session["strings"] | string][] = [
  ["wordle daily", "daily"],
  ["wordle practice", "practice"],
  ["primel daily", "Primel"],
  ["absurdle", "Absurdle"],
  ["dordle", "Dordle"],
  ["quordle", "Quordle"],
  ["octordle", "Octordle"],
];

const $ = (id: string) => document.getElementById(id) as HTMLElement;
const clientId = document.querySelector<HTMLMetaElement>('meta[name="wordlebot-client-id"]')!.content;

let session: Session;
let game: Game | null = null;
let typed = "";
let busy = false;

function say(text: string): void {
  $("status").textContent = text;
}

let sdk: DiscordSDK;

/** Sign in (again: a session lasts 15 minutes): the SDK's code, the server's exchange of
 *  it, authenticate, then the SDK's locale. Authorized once, it asks the player nothing. */
async function signInAgain(): Promise<void> {
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  session = await signIn(code, sdk.instanceId, navigator.language);
  await sdk.commands.authenticate({ access_token: session.access_token });
  const { locale } = await sdk.commands.userSettingsGetLocale().catch(() => ({ locale: "" }));
  if (locale) session = { ...session, ...(await relocate(session.session, locale)) };
}

async function start(): Promise<void> {
  sdk = new DiscordSDK(clientId);
  await sdk.ready();
  await signInAgain();
  document.documentElement.lang = session.language;
  document.documentElement.classList.toggle("contrast", session.high_contrast);
  drawMenu();
  document.addEventListener("keydown", typedKey);
  await Promise.all([showPlayers(sdk), play("wordle daily")]);
  $("window").setAttribute("aria-busy", "false");
}

function drawMenu(): void {
  const menu = $("games");
  menu.replaceChildren();
  for (const [command, name] of GAMES) {
    const label = session.strings[name as keyof Session["strings"]] ?? name;
    const button = element("button", { type: "button", "data-command": command }, label);
    button.addEventListener("click", () => void play(command));
    menu.append(button);
  }
}

// The players beside this one, as Discord's client names them (the SDK), and their progress
// in today's daily as the server streams it (api/together: rows, a score, colours once you
// have finished it yourself; never letters).
type Progress = { id: string; name: string; you: boolean; rows: number; status: string;
                  score?: number | null; marks?: string[] };
const names = new Map<string, string>();
let progress: Progress[] = [];

async function showPlayers(sdk: DiscordSDK): Promise<void> {
  type Participant = { id: string; username: string; global_name?: string | null };
  const named = (participants: Participant[]) => {
    for (const p of participants) names.set(p.id, p.global_name || p.username);
    drawPlayers();
  };
  named((await sdk.commands.getInstanceConnectedParticipants()).participants);
  await sdk.subscribe("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", (update) => named(update.participants));
}

function drawPlayers(): void {
  const list = element("ul");
  for (const player of progress) {
    const name = names.get(player.id) || player.name || "?";
    const done = player.status === "won" ? ` ✓ ${player.score}` : player.status === "lost" ? " ✗" : "";
    const item = element("li", { "aria-label": `${name}: ${player.rows}${done}` });
    item.append(element("span", { class: "name" }, name));
    const rows = element("span", { class: "progress", "aria-hidden": "true" });
    for (let i = 0; i < player.rows; i++) {
      const marks = player.marks?.[i] ?? "";
      const row = element("span", { class: "mini" });
      for (const mark of marks || "-".repeat(5)) row.append(element("i", { "data-mark": mark }));
      rows.append(row);
    }
    item.append(rows, element("span", { class: "score" }, done));
    list.append(item);
  }
  $("players").replaceChildren(element("h2", {}, session.strings.players), list);
}

let watching: { kind: string; stop: AbortController } | null = null;

/** Watch the players' progress in the daily of ``kind`` (the one shown, else Wordle's). */
function watchDaily(kind: string): void {
  if (watching?.kind === kind) return;
  watching?.stop.abort();
  watching = { kind, stop: new AbortController() };
  void watchTogether(kind, watching.stop.signal);
}

async function watchTogether(kind: string, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    try {
      const response = await fetch("api/together", {
        method: "POST",
        headers: { Authorization: `Bearer ${session.session}`, "Content-Type": "application/json" },
        body: JSON.stringify({ kind }),
        signal,
      });
      if (response.status === 401) {
        await signInAgain(); // the session lapsed: watch again with a new one
        continue;
      }
      if (response.status === 403 || !response.body) return; // no longer in the Activity
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
          progress = JSON.parse(buffer.slice(0, end)).players;
          buffer = buffer.slice(end + 1);
          drawPlayers();
        }
      }
    } catch {
      // the network away for a moment: watch again below
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

/** Run a command and show what it answers; a refusal keeps the board as it was. */
async function act(command: string, options: Record<string, unknown> = {}): Promise<Reply | null> {
  if (busy) return null;
  busy = true;
  try {
    const reply = await run(session.session, command, options, game).catch(async (error) => {
      if (!(error instanceof Refused) || error.status !== 401) throw error;
      await signInAgain(); // the session lapsed: a new one, and the move once more
      return run(session.session, command, options, game);
    });
    $("note").textContent = [reply.text, reply.secret, reply.earned].filter(Boolean).join("\n");
    return reply;
  } catch (error) {
    $("note").textContent = error instanceof Refused ? error.message : String(error);
    return null;
  } finally {
    busy = false;
  }
}

async function play(command: string): Promise<void> {
  game = null;
  const reply = await act(command);
  for (const button of $("games").querySelectorAll("button")) {
    button.setAttribute("aria-pressed", String(button.dataset.command === command));
  }
  if (reply?.game) show(reply.game, reply.game.guesses.length);
}

function show(shown: Game, revealFrom: number): void {
  game = shown;
  watchDaily(shown.kind.endsWith(":daily") ? shown.kind : "wordle:daily");
  typed = "";
  $("title").textContent = shown.title;
  say(shown.over && shown.answer ? shown.answer.toUpperCase() : "");
  drawBoard($("board"), shown, typed, revealFrom);
  drawKeyboard($("keyboard"), shown, session.strings, press);
  const actions = element("div", { class: "actions" });
  if (shown.over && shown.kind.endsWith(":daily")) {
    const button = element("button", { type: "button", id: "share" }, session.strings.share);
    button.addEventListener("click", () => {
      share(session.session, shown).then(
        () => button.setAttribute("disabled", ""),
        (error) => ($("note").textContent = error instanceof Refused ? error.message : String(error)),
      );
    });
    actions.append(button);
  }
  if (!shown.over) {
    for (const [command, label] of [["hint", session.strings.hint], ["giveup", session.strings.giveup]]) {
      const button = element("button", { type: "button" }, label);
      button.addEventListener("click", () => void act(command).then((r) => r?.game && show(r.game, r.game.guesses.length)));
      actions.append(button);
    }
  }
  $("keyboard").append(actions);
}

function letters(): Set<string> {
  return new Set(game?.keys.flat().map(([key]) => key) ?? []);
}

function press(key: string): void {
  if (!game || game.over || busy) return;
  if (key === ENTER) {
    void guess();
  } else if (key === DELETE) {
    typed = typed.slice(0, -1);
  } else if (typed.length < game.length && letters().has(key)) {
    typed += key;
  }
  drawBoard($("board"), game, typed, game.guesses.length);
}

function typedKey(event: KeyboardEvent): void {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target instanceof HTMLButtonElement && event.key === "Enter") return;
  const key = event.key === "Enter" ? ENTER : event.key === "Backspace" ? DELETE : event.key.toLowerCase();
  if (key === ENTER || key === DELETE || letters().has(key)) {
    event.preventDefault();
    press(key);
  }
}

async function guess(): Promise<void> {
  if (!game || typed.length !== game.length) return;
  const before = game.guesses.length;
  const reply = await act("guess", { word: typed });
  if (reply?.game) show(reply.game, reply.rolled_back ? reply.game.guesses.length : before);
}

start().catch((error) => {
  say(error instanceof Refused ? error.message : `wordlebot: ${String(error)}`);
  $("window").setAttribute("aria-busy", "false");
});
