// The trace service name depends on the stage (function name `elevation-api-<stage>-elevation`);
// outside Grafana we can ask Jaeger which services exist and pick the elevation function's.
import { listServices } from './jaeger';

export const resolveTraceService = async (jaegerUrl: string, preferred: string): Promise<string> => {
  const services = await listServices(jaegerUrl);
  if (services.includes(preferred)) return preferred;
  return services.find((s) => /-elevation$/.test(s)) ?? preferred;
};
