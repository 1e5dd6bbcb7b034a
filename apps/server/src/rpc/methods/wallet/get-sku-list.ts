import { userHandler } from '../../define-handler';

export const getSkuListHandler = userHandler('hub_getSkuList', ({ ctx }) =>
  Promise.resolve({
    version: ctx.skus.version,
    currency: ctx.skus.currency,
    list: ctx.skus.skus,
  }),
);
