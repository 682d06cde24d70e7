// Client bundle: TypeScript through esbuild (transpile only: `npm run typecheck` checks types),
// CSS injected by style-loader, content-hashed names so the server may cache them forever.
import fs from 'node:fs';
import path from 'node:path';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import { sources, type Compiler, type Configuration } from 'webpack';

const root = path.resolve(__dirname);

/** client/public as it is (web manifest, icons, favicon), at the root of the site. */
class PublicFilesPlugin {
  apply(compiler: Compiler) {
    compiler.hooks.thisCompilation.tap('PublicFilesPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'PublicFilesPlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        const dir = path.join(root, 'client/public');
        for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
          if (!entry.isFile()) continue;
          const full = path.join(entry.parentPath, entry.name);
          compilation.emitAsset(path.relative(dir, full).split(path.sep).join('/'), new sources.RawSource(fs.readFileSync(full)));
        }
      });
    });
  }
}

/** The footer's project write-up link (client/src/components/Footer.tsx) opens the README. */
class WriteUpPlugin {
  apply(compiler: Compiler) {
    compiler.hooks.thisCompilation.tap('WriteUpPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'WriteUpPlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        const readme = path.join(root, 'README.md');
        if (fs.existsSync(readme)) compilation.emitAsset('write-up.txt', new sources.RawSource(fs.readFileSync(readme)));
      });
    });
  }
}

export default (_env: unknown, argv: { mode?: Configuration['mode'] }): Configuration => {
  const mode = argv.mode ?? 'production';
  return {
    mode,
    entry: {
      main: path.join(root, 'client/src/main.tsx'),
      // The service worker keeps one name (/sw.js): browsers look it up by its address.
      sw: path.join(root, 'client/src/sw/serviceWorker.ts'),
    },
    output: {
      path: path.join(root, 'dist'),
      filename: (chunk) => (chunk.chunk?.name === 'sw' ? 'sw.js' : '[name].[contenthash].js'),
      chunkFilename: '[name].[contenthash].js',
      assetModuleFilename: 'assets/[name].[contenthash][ext]',
      publicPath: '/',
      clean: true,
    },
    resolve: { extensions: ['.tsx', '.ts', '.js'] },
    module: {
      rules: [
        { test: /\.tsx?$/, loader: 'esbuild-loader', options: { target: 'es2020', jsx: 'automatic' } },
        { test: /\.css$/, use: ['style-loader', 'css-loader'] },
        { test: /\.(svg|png|ico|woff2)$/, type: 'asset/resource' },
      ],
    },
    plugins: [new HtmlWebpackPlugin({ template: path.join(root, 'client/index.html'), chunks: ['main'] }), new PublicFilesPlugin(), new WriteUpPlugin()],
    devtool: mode === 'production' ? 'source-map' : 'eval-cheap-module-source-map',
    performance: { hints: false },
  };
};
