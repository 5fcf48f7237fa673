// The collector names the API's service `elevation-api`; traces recorded before it (one service per function,
// `elevation-api-<stage>-elevation`) are still found: outside Grafana we can ask Jaeger which services exist.
import { listServices } from './jaeger';

export const resolveTraceService = async (jaegerUrl: string, preferred: string): Promise<string> => {
  const services = await listServices(jaegerUrl);
  if (services.includes(preferred)) return preferred;
  return services.find((s) => /-elevation$/.test(s)) ?? preferred;
};
