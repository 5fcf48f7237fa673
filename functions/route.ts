/**
 * The shape every handler shares, written once: instrumented, the app built on first use, CORS preflight
 * answered, the method checked, and any error mapped to a status in one place (never thrown: serverless-offline
 * would turn a thrown error into HTTP 200).
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { instrumentHandler, type RequestTelemetry } from '../layers/telemetry';
import { corsOriginOrNull, getApp, type App } from './app';
import { errorResponse, method, preflightResponse, requireMethod, type Response } from './http';

export type RouteHandler = (
  event: APIGatewayProxyEventV2,
  t: RequestTelemetry,
  app: App,
) => Promise<Response>;

export function route(name: string, methods: readonly string[], fn: RouteHandler) {
  return instrumentHandler(name, async (event, t) => {
    try {
      const app = getApp();
      if (method(event) === 'OPTIONS' && methods.includes('OPTIONS'))
        return preflightResponse(app.corsOrigin);
      requireMethod(event, methods);
      return await fn(event, t, app);
    } catch (error) {
      return errorResponse(error, corsOriginOrNull(), t);
    }
  });
}
