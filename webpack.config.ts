// Client bundle: TypeScript through esbuild (transpile only: `npm run typecheck` checks types),
// CSS injected by style-loader, content-hashed names so the server may cache them forever, one
// chunk per route (React.lazy in app/routes.tsx), and brotli and gzip copies of every text file
// made here once, so the server sends them as they are (server/src/transport/static-files.ts).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import CompressionPlugin from 'compression-webpack-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import { sources, type ChunkGraph, type Compiler, type Configuration, type Module } from 'webpack';

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

const LINKED_CSS = /(styles[\\/]global|features[\\/]call[\\/]call)\.css$/;
/** The chat screens' stylesheets, files too, linked by the first chat screen (app/routes.tsx, app/stylesheet.ts). */
const LAZY_LINKED_CSS = /(styles[\\/]chat|features[\\/](room[\\/]reads|room[\\/]messageActions|room[\\/]attachments|messageSearch[\\/]messageSearch|notifications[\\/]notifications))\.css$/;

/** Links the stylesheets emitted as files (LINKED_CSS) from index.html's head, global first. */
class LinkedStylesheetsPlugin {
  apply(compiler: Compiler) {
    compiler.hooks.compilation.tap('LinkedStylesheetsPlugin', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('LinkedStylesheetsPlugin', (data) => {
        const sheets = Object.keys(compilation.assets)
          .filter((name) => /^(global|call)\.[0-9a-f]+\.css$/.test(name))
          .sort((a, b) => (a.startsWith('global') ? -1 : b.startsWith('global') ? 1 : 0));
        for (const css of sheets) data.headTags.push(HtmlWebpackPlugin.createHtmlTagObject('link', { rel: 'stylesheet', href: `/${css}` }));
        return data;
      });
    });
  }
}

/** The module through which the chat features import createEntityAdapter (see LazyToolkitCopyPlugin). */
const ENTITY_ADAPTER_MODULE = path.join(root, 'client/src/kernel/entityAdapter.ts');

/**
 * Redux Toolkit is one module, in `main` (the store needs it from the start), and webpack keeps in
 * that one copy every export any chunk uses: createEntityAdapter, and reselect behind its
 * selectors, would add 2.6 KiB gzip to /login for the chat screens' sake. The toolkit as imported
 * by ENTITY_ADAPTER_MODULE is made a module of its own instead (same file, another identity), so
 * that copy, trimmed to the adapter, goes with the lazy chunks that use it. The build fails if
 * that module no longer imports the toolkit, rather than silently growing `main`.
 */
class LazyToolkitCopyPlugin {
  apply(compiler: Compiler) {
    compiler.hooks.thisCompilation.tap('LazyToolkitCopyPlugin', (compilation, { normalModuleFactory }) => {
      let copied = false;
      normalModuleFactory.hooks.afterResolve.tap('LazyToolkitCopyPlugin', (data) => {
        if (data.request !== '@reduxjs/toolkit' || data.contextInfo.issuer !== ENTITY_ADAPTER_MODULE) return;
        const created = data.createData as { resource: string; request: string; userRequest: string };
        created.resource += '?lazy-copy';
        created.request += '?lazy-copy';
        created.userRequest += '?lazy-copy';
        copied = true;
      });
      compilation.hooks.finishModules.tap('LazyToolkitCopyPlugin', () => {
        if (!copied) compilation.errors.push(new compiler.webpack.WebpackError(`LazyToolkitCopyPlugin: ${path.relative(root, ENTITY_ADAPTER_MODULE)} did not import @reduxjs/toolkit`));
      });
    });
  }
}

const COMPRESSIBLE = /\.(js|css|html|svg|txt|json)$/;

function compressedCopies() {
  return [
    new CompressionPlugin<zlib.BrotliOptions>({
      filename: '[path][base].br',
      algorithm: 'brotliCompress',
      test: COMPRESSIBLE,
      compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY } },
      threshold: 0,
      minRatio: 1,
    }),
    new CompressionPlugin({
      filename: '[path][base].gz',
      algorithm: 'gzip',
      test: COMPRESSIBLE,
      compressionOptions: { level: 9 },
      threshold: 0,
      minRatio: 1,
    }),
  ];
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
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      alias: {
        // The wire contract, as tsconfig.base.json names it.
        '@common': path.join(root, 'common'),
      },
    },
    module: {
      rules: [
        { test: /\.tsx?$/, loader: 'esbuild-loader', options: { target: 'es2020', jsx: 'automatic' } },
        // The client's modules only define things when imported (eslint.config.mjs allows no bare
        // import but a stylesheet's), so an importer of a feature's index.ts gets only the modules
        // whose exports it uses, not every one the index re-exports.
        { test: /\.tsx?$/, include: path.join(root, 'client/src'), sideEffects: false },
        // The stylesheets every page needs (global, and the call overlays' that can show on any
        // chat screen) are files of their own, linked from index.html (LinkedStylesheetsPlugin):
        // CSS, not JavaScript to run. The other features' stylesheets come with their lazy chunks.
        // The chat screens' stylesheets (LAZY_LINKED_CSS) are files as well, linked when the first chat screen loads.
        { test: [LINKED_CSS, LAZY_LINKED_CSS], type: 'asset/resource', generator: { filename: '[name].[contenthash][ext]' } },
        { test: /\.css$/, exclude: [LINKED_CSS, LAZY_LINKED_CSS], use: ['style-loader', 'css-loader'] },
        { test: /\.(svg|png|ico|woff2)$/, type: 'asset/resource' },
        // `import url from '…?url'`: the file as it is, its address imported (the emoji picker's data, issue 27).
        { resourceQuery: /^\?url$/, type: 'asset/resource' },
      ],
    },
    plugins: [
      new HtmlWebpackPlugin({ template: path.join(root, 'client/index.html'), chunks: ['main'] }),
      // client/public (the manifest, icons, favicon) is copied as it is; the service worker is its own entry.
      new PublicFilesPlugin(),
      new LinkedStylesheetsPlugin(),
      new WriteUpPlugin(),
      new LazyToolkitCopyPlugin(),
      ...(mode === 'production' ? compressedCopies() : []),
    ],
    // Production maps stay beside the build for whoever debugs, unreferenced by the bundles (and the server never serves them).
    devtool: mode === 'production' ? 'hidden-source-map' : 'eval-cheap-module-source-map',
    performance: { hints: false },
    // Every module of the `signed-in` chunk (the layout, hosts and listeners every signed-in screen
    // loads), with each one it shares with the chat screens' chunks (stomp, the slices, reselect),
    // goes into one chunk, `signed-in-common`: one file compresses better than eight (issue 26's
    // client-load goal, docs/benchmarks.md), and every chat screen loads it anyway. Modules
    // /login, /sign-up or the not-found page use stay out, so those never load it. Other modules
    // two lazy chunks share go into a shared chunk from 8 kB on; smaller ones are copied into
    // each, since a chunk of its own costs a request and more than its size in lost compression.
    optimization: {
      splitChunks: {
        minSize: 8000,
        cacheGroups: {
          signedIn: {
            name: 'signed-in-common',
            chunks: 'async',
            priority: 10,
            enforce: true,
            test: (module: Module, { chunkGraph }: { chunkGraph: ChunkGraph }) => {
              const names = [...chunkGraph.getModuleChunksIterable(module)].map((c) => c.name);
              return names.includes('signed-in') && !names.some((n) => n === 'login' || n === 'sign-up' || n === 'not-found');
            },
          },
        },
      },
    },
  };
};
