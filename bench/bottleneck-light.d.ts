// Used by the admission benchmark as the peer. `bottleneck/light.js` is bottleneck without its Redis code (7 KiB instead of 15 KiB gzipped); it
// ships no typings of its own, but its API is the full build's.
declare module 'bottleneck/light.js' {
  import Bottleneck from 'bottleneck';
  export default Bottleneck;
}
