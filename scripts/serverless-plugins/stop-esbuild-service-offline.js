'use strict';

/**
 * Ends esbuild's service process once `osls offline start` has bundled the functions and started listening.
 *
 * Why: esbuild's JavaScript API runs the bundler as a long-lived child process (`esbuild --service … --ping`) and
 * keeps it until the Node process exits. Under `npm start` nothing is bundled again (serverless.yml turns watching
 * off and uses one-shot builds), so the child only holds memory: 117 MB right after start-up and 28-36 MB under
 * load even with GOMEMLIMIT=128MiB (scripts/start/serverless-offline.ts), measured with the process tree's RSS
 * under bench:scale's workloads. esbuild's `stop()` kills it; any later build (there is none) would start a new
 * one (node_modules/esbuild/lib/main.js: ensureServiceIsRunning).
 *
 * Only `offline start` is touched: `package` and `deploy` keep esbuild as serverless-esbuild uses it.
 */
class StopEsbuildServiceOffline {
  constructor(serverless, _options, utils) {
    this.log = (utils && utils.log) || { debug: () => undefined, warning: console.warn };
    this.hooks = { 'after:offline:start:init': () => this.stopService() };
  }

  async stopService() {
    try {
      // The same module instance serverless-esbuild bundled with (one esbuild in node_modules).
      await require('esbuild').stop();
      this.log.debug('stop-esbuild-service-offline: esbuild service process stopped');
    } catch (error) {
      // Memory only: never fail the start for it.
      this.log.warning(`stop-esbuild-service-offline: could not stop esbuild's service (${error})`);
    }
  }
}

module.exports = StopEsbuildServiceOffline;
