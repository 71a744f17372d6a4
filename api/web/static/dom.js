// Small DOM helpers shared by the pages.
const statusLine = () => document.getElementById("status");

/** A new element: `attrs` are attributes ("class", "text" for its text; null/false skipped). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

/** Say `text` in the page's status line (an aria-live region). */
export function say(text) { statusLine().textContent = text; }

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
