export default defineBackground(() => {
  // Wired up in lib/background (issue 3).
});
