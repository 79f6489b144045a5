// The endpoints controller as the controller manager builds it (see ../all.ts).
import type { ControllerFactory } from '../manager.js';
import { EndpointsController, type EndpointsControllerOptions } from './controller.js';

export { EndpointsController, ENDPOINTS_COMPONENT, SLICES_COMPONENT, type EndpointsControllerOptions } from './controller.js';
export { MANAGED_BY, MANAGED_BY_LABEL, MAX_ENDPOINTS_PER_SLICE } from './slices.js';
export { SERVICE_NAME_LABEL } from '../../api/services.js';

export function endpointsControllerFactory(options: EndpointsControllerOptions = {}): ControllerFactory {
  return (ctx) => new EndpointsController(ctx, options);
}

export const endpointsController: ControllerFactory = endpointsControllerFactory();
