// The local osls plugin that lets `osls package` run without AWS credentials (see the plugin's header).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const SkipLayerComparisonOffline = require('../../scripts/serverless-plugins/skip-layer-comparison-offline');

interface FakeLayerCompiler {
  compareWithLastLayer(layerName: string): Promise<unknown>;
}

function pluginFor(command: string, compiler: FakeLayerCompiler, notices: string[]) {
  const serverless = { processedInput: { commands: [command] }, pluginManager: { plugins: [{}, compiler] } };
  const log = { notice: (m: string) => notices.push(m), warning: (m: string) => notices.push(m) };
  const plugin = new SkipLayerComparisonOffline(serverless, {}, { log });
  plugin.hooks['before:package:compileLayers']();
  return plugin;
}

const failingWith = (error: Error & { code?: string }): FakeLayerCompiler => ({
  compareWithLastLayer: () => Promise.reject(error),
});

describe('skip-layer-comparison-offline', () => {
  it('skips the comparison during package when there are no AWS credentials', async () => {
    const notices: string[] = [];
    const compiler = failingWith(Object.assign(new Error('no creds'), { code: 'AWS_CREDENTIALS_NOT_FOUND' }));
    pluginFor('package', compiler, notices);
    await expect(compiler.compareWithLastLayer('dem')).resolves.toBeUndefined();
    expect(notices.join()).toContain('Layer dem: skipped the comparison');
  });

  it('skips the comparison during package when AWS cannot be reached', async () => {
    const compiler = failingWith(Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND' }));
    pluginFor('package', compiler, []);
    await expect(compiler.compareWithLastLayer('dem')).resolves.toBeUndefined();
  });

  it('rethrows other errors during package', async () => {
    const compiler = failingWith(Object.assign(new Error('denied'), { code: 'AccessDenied' }));
    pluginFor('package', compiler, []);
    await expect(compiler.compareWithLastLayer('dem')).rejects.toThrow('denied');
  });

  it('leaves deploy untouched, where a failed comparison is a real error', async () => {
    const compiler = failingWith(Object.assign(new Error('no creds'), { code: 'AWS_CREDENTIALS_NOT_FOUND' }));
    pluginFor('deploy', compiler, []);
    await expect(compiler.compareWithLastLayer('dem')).rejects.toThrow('no creds');
  });
});
