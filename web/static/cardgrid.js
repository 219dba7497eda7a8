// What can the others hold (docs/web.md): the hint's card table (`"cards": true, "view": P` on
// a hint request, docs/hint.md) drawn as one 4x10 grid per other player and the stock, suits by
// ranks in the labels shown, each card's cell shaded by the chance that it is there (a poker
// range chart's heat map); the cards P has seen (his hand, the table) are greyed; above the
// grids, the server's line on what the reading rests on (`based_on_text`).

import { api } from "./api.js";
import { RANKS, SUITS, cardName, label, moveLabel, rankLabel, suitLabel } from "./cards.js";
import { counted, el, render } from "./shared.js";

// The card table of `position` (a notation) from seat `seat`'s view: the server's `cards`.
export async function loadCards(position, seat, { signal } = {}) {
  const result = await api("hint", { position, cards: true, view: seat, seed: 0, labels: "french" }, { signal });
  return result.cards;
}

// A cell's colour for the chance `p` (0..1): from near white to a deep blue.
function heat(p) {
  const light = 97 - 62 * Math.min(1, Math.max(0, p));
  return `hsl(212, 70%, ${light}%)`;
}

function placeName(place, cards) {
  const count = cards.counts[place];
  return place === "stock" ? `the stock (${counted(count, "card")})` : `player ${place}'s hand (${counted(count, "card")})`;
}

// The grids of `cards` (the server's answer) drawn into `container` (again on a labels switch).
export function drawCardGrids(container, cards) {
  render(container, () => {
    container.replaceChildren();
    container.dataset.view = String(cards.view);
    const how = cards.exact ? "exact" : `frequencies over ${Number(cards.samples).toLocaleString("en-US")} seeded draws`;
    container.append(
      el("div", "hint-head", `What the others can hold, from player ${cards.view}'s view: the chance that each card he has not seen is in each place (${how}; darker: likelier; grey: seen).`),
      el("div", "cards-basis", moveLabel(cards.based_on_text || "")),
    );
    const grids = el("div", "card-grids");
    for (const place of cards.places) {
      const box = el("div", "card-grid-box");
      box.dataset.place = place;
      box.append(el("div", "card-grid-title", placeName(place, cards)));
      const grid = el("div", "card-grid");
      grid.setAttribute("role", "table");
      grid.setAttribute("aria-label", `chances: ${placeName(place, cards)}`);
      grid.append(el("span", "grid-corner"));
      for (const rank of RANKS) grid.append(el("span", "grid-rank", rankLabel(rank)));
      for (const suit of SUITS) {
        const head = el("span", `grid-suit suit-${suit}`, suitLabel(suit));
        grid.append(head);
        for (const rank of RANKS) {
          const code = rank + suit;
          const chances = cards.unseen[code];
          const cell = el("span", `grid-cell suit-${suit}`);
          cell.dataset.card = code;
          cell.append(el("span", "grid-card", label(code)));
          if (chances) {
            const p = chances[place] ?? 0;
            cell.dataset.p = String(p);
            cell.style.background = heat(p);
            if (p > 0.55) cell.classList.add("dark");
            cell.append(el("span", "grid-p", `${Math.round(100 * p)}`));
            cell.title = `${cardName(code)}: ${(100 * p).toFixed(1)}% in ${placeName(place, cards)}`;
          } else {
            cell.classList.add("seen");
            cell.title = `${cardName(code)}: seen by player ${cards.view} (not hidden)`;
          }
          grid.append(cell);
        }
      }
      box.append(grid);
      grids.append(box);
    }
    container.append(grids);
  });
}
