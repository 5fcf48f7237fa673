'use strict';

/**
 * Lets `osls package` succeed with no AWS credentials or no network.
 *
 * Why: when a service declares `layers:`, osls's AwsCompileLayers (hook `package:compileLayers`,
 * node_modules/osls/lib/plugins/aws/package/compile/layers.js) calls `compareWithLastLayer`, which
 * asks CloudFormation (DescribeStacks) whether the deployed stack already holds a layer with the same
 * hash, only to reuse its S3 key and skip a re-upload. Packaging needs nothing from that answer, but
 * without credentials the call fails and takes the whole `package` command down with it.
 *
 * What: for the `package` command only, a comparison that fails because there are no credentials or
 * no route to AWS is skipped with a notice (the layer is then simply uploaded again on deploy).
 * `deploy` keeps the original behaviour: there a failure is real and must surface.
 */
const CREDENTIAL_ERROR_CODES = new Set(['AWS_CREDENTIALS_NOT_FOUND', 'UNRECOGNIZED_AWS_PROFILE']);
const NETWORK_ERROR_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
]);

function isOfflineError(error) {
  if (!error || typeof error !== 'object') return false;
  if (CREDENTIAL_ERROR_CODES.has(error.code) || NETWORK_ERROR_CODES.has(error.code)) return true;
  if (error.name === 'CredentialsProviderError' || error.name === 'TimeoutError') return true;
  return isOfflineError(error.cause);
}

class SkipLayerComparisonOffline {
  constructor(serverless, _options, utils) {
    this.serverless = serverless;
    this.log = (utils && utils.log) || { notice: console.log, warning: console.warn };
    this.hooks = { 'before:package:compileLayers': () => this.guardLayerComparison() };
  }

  guardLayerComparison() {
    const commands = (this.serverless.processedInput && this.serverless.processedInput.commands) || [];
    if (commands[0] !== 'package') return;
    const compileLayers = this.serverless.pluginManager.plugins.find(
      (plugin) => typeof plugin.compareWithLastLayer === 'function',
    );
    if (!compileLayers) {
      this.log.warning('skip-layer-comparison-offline: osls layer compiler not found; nothing to guard');
      return;
    }
    const compare = compileLayers.compareWithLastLayer.bind(compileLayers);
    compileLayers.compareWithLastLayer = async (layerName) => {
      try {
        return await compare(layerName);
      } catch (error) {
        if (!isOfflineError(error)) throw error;
        this.log.notice(
          `Layer ${layerName}: skipped the comparison with the deployed stack (no AWS credentials or no network).`,
        );
        return undefined;
      }
    };
  }
}

module.exports = SkipLayerComparisonOffline;
