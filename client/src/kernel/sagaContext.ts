// Typed access to a service from the saga context: `const http = yield* service('http')`.
import { getContext } from 'redux-saga/effects';
import type { GetContextEffect } from 'redux-saga/effects';
import type { Services } from './services';

export function* service<K extends keyof Services>(key: K): Generator<GetContextEffect, Services[K], Services[K]> {
  return yield getContext(key);
}
