/** Vite's `?worker` imports (https://vite.dev/guide/features#import-with-query-suffixes). */
declare module '*?worker' {
  const WorkerConstructor: new (options?: { name?: string }) => Worker;
  export default WorkerConstructor;
}
