// The bot's web server, as the window speaks to it (bot/web/activity.py). Every URL is
// relative: inside Discord the page is served through Discord's proxy, which maps the
// Activity's root to the server's /activity/.

export type Row = { word: string; marks: string; label: string };

export type Game = {
  id: number;
  kind: string;
  title: string;
  status: string;
  over: boolean;
  max_guesses: number;
  length: number;
  guesses: string[];
  rows: Row[];
  boards: Row[][] | null;
  answer: string | null;
  keys: [string, number][][];
  alt: string;
  keyboard_alt: string;
};

export type Reply = {
  text: string;
  refused: boolean;
  secret: string;
  earned: string;
  game: Game | null;
  rolled_back: boolean;
};

export type Strings = Record<
  "daily" | "practice" | "enter" | "delete" | "hint" | "giveup" | "keyboard" | "players" | "share",
  string
>;

export type Session = {
  session: string;
  access_token: string;
  user: { id: string; name: string };
  language: string;
  strings: Strings;
  high_contrast: boolean;
};

export class Refused extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

async function post<T>(path: string, body: unknown, session?: string): Promise<T> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (session) headers.Authorization = `Bearer ${session}`;
  const response = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Refused(response.status, data.error ?? response.statusText);
  return data as T;
}

export function signIn(code: string, instanceId: string, locale: string): Promise<Session> {
  return post<Session>("api/session", { code, instance_id: instanceId, locale });
}

/** The session again in ``locale`` (the SDK's, known once authenticated). */
export function relocate(session: string, locale: string): Promise<Session> {
  return post<Session>("api/locale", { locale }, session);
}

export function run(
  session: string,
  command: string,
  options: Record<string, unknown> = {},
  shown?: Game | null,
): Promise<Reply> {
  const board = shown ? { game: shown.id, rows: shown.guesses.length } : {};
  return post<Reply>("api/command", { command, options, ...board }, session);
}

/** A finished daily's squares, posted in the channel by the bot (once, however often asked). */
export function share(session: string, game: Game): Promise<{ shared: boolean }> {
  return post("api/share", { game: game.id }, session);
}
