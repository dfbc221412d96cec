// The two files of undici that src/api/undici-request.ts imports, typed as undici's index types what it exports
// from them.
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const AgentFile: typeof Agent;
  export default AgentFile;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  /** Called with the dispatcher as `this`, as undici's index attaches it to Dispatcher.prototype. */
  function request(this: Dispatcher, opts: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export default request;
}
