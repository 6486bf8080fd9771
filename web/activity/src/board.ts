// Drawing the board and the keyboard: plain DOM, the marks as data attributes the style sheet
// colours (app.css), the words screen readers hear as the bot's own alt text.
import type { Game, Row, Strings } from "./api";

const ENTER = "enter";
const DELETE = "delete";

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  text = "",
): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, value);
  made.textContent = text;
  return made;
}

function tileRow(length: number, letters: string, marks = "", reveal = false): HTMLElement {
  const row = element("div", { class: "row" });
  row.style.setProperty("--length", String(length));
  for (let i = 0; i < length; i++) {
    const tile = element("div", { class: "tile", "aria-hidden": "true" }, letters[i] ?? "");
    if (marks) {
      tile.dataset.mark = marks[i];
      if (reveal) {
        tile.classList.add("reveal");
        tile.style.setProperty("--i", String(i));
      }
    } else if (letters[i]) {
      tile.classList.add("typed");
    }
    row.append(tile);
  }
  return row;
}

/** The board(s): the rows played, the word being typed, and the rows still to play.
 *  ``revealFrom``: rows from this index on were just played, and turn over. */
export function drawBoard(
  host: HTMLElement,
  game: Game,
  typed: string,
  revealFrom: number,
): void {
  const boards: Row[][] = game.boards ?? [game.rows];
  host.replaceChildren();
  host.dataset.boards = String(boards.length);
  host.style.setProperty("--boards", String(Math.min(boards.length, 4)));
  host.setAttribute("aria-label", game.alt);
  const played = game.guesses.length;
  const total = game.max_guesses || Math.max(6, played + 1);
  for (const rows of boards) {
    const grid = element("div", { class: "grid" });
    const solved = rows.some((row) => row.marks === "2".repeat(game.length));
    rows.forEach((row, i) => grid.append(tileRow(game.length, row.word, row.marks, i >= revealFrom)));
    if (!game.over && !solved) {
      grid.append(tileRow(game.length, typed));
      for (let i = rows.length + 1; i < total; i++) grid.append(tileRow(game.length, ""));
    }
    host.append(grid);
  }
}

/** The on-screen keyboard in the game's own layout, each key coloured as the images draw it.
 *  ``press`` receives a letter, ENTER or DELETE. */
export function drawKeyboard(
  host: HTMLElement,
  game: Game,
  strings: Strings,
  press: (key: string) => void,
): void {
  host.replaceChildren();
  host.setAttribute("aria-label", `${strings.keyboard}: ${game.keyboard_alt}`);
  game.keys.forEach((keys, index) => {
    const line = element("div", { class: "keys" });
    if (index === game.keys.length - 1) line.append(key(ENTER, strings.enter, press, true));
    for (const [letter, state] of keys) {
      const button = key(letter, letter.toUpperCase(), press);
      button.dataset.state = String(state);
      line.append(button);
    }
    if (index === game.keys.length - 1) line.append(key(DELETE, "⌫", press, true, strings.delete));
    host.append(line);
  });
}

function key(
  value: string,
  label: string,
  press: (key: string) => void,
  wide = false,
  spoken = "",
): HTMLButtonElement {
  const button = element("button", { type: "button", "data-key": value }, label);
  if (wide) button.classList.add("wide");
  if (spoken) button.setAttribute("aria-label", spoken);
  button.addEventListener("click", () => press(value));
  return button;
}

export { ENTER, DELETE, element };
