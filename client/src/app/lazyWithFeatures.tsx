// A component loaded on first render (React.lazy) together with the features it needs: both
// chunks (and its lazily linked stylesheets) are fetched at once, the features are installed in the store (app/store.ts), and only
// then does the component render, so its selectors always find their slices. While either is
// loading the nearest Suspense boundary shows its fallback; once installed, it renders at once.
import { lazy, use, type ComponentType } from 'react';
import { useStore } from 'react-redux';
import type { Feature } from '../kernel/feature';
import type { AppStore } from './store';
import { linkStylesheet } from './stylesheet';

/** The store itself, only for installing features: the screens reach it through kernel/hooks.ts. */
const useAppStore = useStore.withTypes<AppStore>();

type Module<P> = { default: ComponentType<P> };

export function lazyWithFeatures<P extends object>(
  loadComponent: () => Promise<Module<P>>,
  loadFeatures: () => Promise<readonly Feature[]>,
  options: { lateServices?: boolean; stylesheets?: readonly string[] } = {},
): ComponentType<P> {
  let component: Promise<Module<P>> | null = null;
  const startComponent = () => (component ??= loadComponent());
  const Component = lazy(startComponent);
  let features: readonly Feature[] | null = null;
  let featuresLoading: Promise<readonly Feature[]> | null = null;

  function WithFeatures(props: P) {
    const store = useAppStore();
    if (!features) {
      // Everything this screen needs is requested together, not one after another.
      void startComponent();
      if (options.lateServices) store.prefetchLateServices();
      featuresLoading ??= Promise.all([loadFeatures(), ...(options.stylesheets ?? []).map(linkStylesheet)]).then(([loaded]) => (features = loaded));
      use(featuresLoading);
    }
    // Each promise is the store's own (one per feature), so it is the same one on every render.
    for (const feature of features ?? []) if (!store.isInstalled(feature)) use(store.installFeature(feature));
    return <Component {...props} />;
  }
  return WithFeatures;
}

