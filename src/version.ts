/** The SDK's version. */
export const VERSION = '0.1.0';
