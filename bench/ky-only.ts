/** The peer of the import-time figure: ky alone, bundled the way the SDK is (bench/size.ts). */
import ky from 'ky';

export const instance = ky.create({ retry: 0 });
