// The page's words for numbers: "1 point", "2 points"; "+3", "0", "-2".

export function plural(count, word, words = `${word}s`) {
  return `${count} ${count === 1 ? word : words}`;
}

export function signed(value) {
  return value > 0 ? `+${value}` : `${value}`;
}
