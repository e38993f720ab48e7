/**
 * Strings a hostile API (or a hostile keyword a user tracks) could send, built from payloads that
 * run script or fetch something if they ever reach the page as markup, each behind every context
 * breaker (closing an attribute, a cell, the title, a style or SVG element, a comment, CDATA) and
 * in several spellings. Every payload, when it runs, sets `window.__pwned`, opens a dialog or
 * requests http://pwned.invalid/, so the browser test sees it.
 */
const RUN = 'window.__pwned=1;alert(1)';
const PAYLOADS = [
  `<script>${RUN}</script>`,
  `<img src=x onerror="${RUN}">`,
  `<img src="http://pwned.invalid/i.png">`,
  `<svg onload="${RUN}"></svg>`,
  `<svg><script>${RUN}</script></svg>`,
  `<svg><a href="javascript:${RUN}"><text>x</text></a></svg>`,
  `<svg><foreignObject><iframe src="javascript:${RUN}"></iframe></foreignObject></svg>`,
  `<svg><animate onbegin="${RUN}" attributeName="x" dur="1s"/></svg>`,
  `<svg><set attributeName="onmouseover" to="${RUN}"/></svg>`,
  `<svg><image href="http://pwned.invalid/s.png"/></svg>`,
  `<iframe srcdoc="<script>parent.${RUN}</script>"></iframe>`,
  `<iframe src="http://pwned.invalid/"></iframe>`,
  `<object data="http://pwned.invalid/o"></object>`,
  `<embed src="http://pwned.invalid/e">`,
  `<link rel="stylesheet" href="http://pwned.invalid/s.css">`,
  `<style>@import "http://pwned.invalid/i.css";</style>`,
  `<style>body{background:url(http://pwned.invalid/b.png)}</style>`,
  `<div style="background:url(http://pwned.invalid/d.png)">x</div>`,
  `<body onload="${RUN}">`,
  `<details open ontoggle="${RUN}">`,
  `<input autofocus onfocus="${RUN}">`,
  `<video><source onerror="${RUN}"></video>`,
  `<audio src=x onerror="${RUN}">`,
  `<marquee onstart="${RUN}">`,
  `<meta http-equiv="refresh" content="0;url=http://pwned.invalid/">`,
  `<base href="http://pwned.invalid/">`,
  `<form action="http://pwned.invalid/"><button autofocus>x</button></form>`,
  `<a href="javascript:${RUN}">click</a>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="${RUN}">`,
  `<noscript><p title="</noscript><img src=x onerror=${RUN}>">`,
  `<template><script>${RUN}</script></template>`,
  `javascript:${RUN}`,
  `" onmouseover="${RUN}" x="`,
  `' onfocus='${RUN}' autofocus x='`,
  `{{constructor.constructor('${RUN}')()}}`,
  `\${${RUN}}`,
  `&lt;script&gt;${RUN}&lt;/script&gt;`,
  `&#60;script&#62;${RUN}&#60;/script&#62;`,
  `%3Cscript%3E${RUN}%3C/script%3E`,
  `\u003cscript\u003e${RUN}\u003c/script\u003e`,
  `<scr<script>ipt>${RUN}</scr</script>ipt>`,
];
const BREAKERS = [
  '',
  '"',
  "'",
  '">',
  "'>",
  '</td>',
  '</title>',
  '</style>',
  '</svg>',
  '</figure>',
  '-->',
  ']]>',
  '</textarea>',
  '<!--',
  '</p></div>',
];
const SPELLINGS: ReadonlyArray<(s: string) => string> = [
  (s) => s,
  (s) => s.toUpperCase().replace('WINDOW.__PWNED=1;ALERT(1)', RUN),
  (s) => s.replace(/</g, '<\u0000'),
  (s) => s.replace(/ /g, '\n'),
  (s) => `\u202e${s}\u202c\u2066`,
  (s) => `\x1b]0;title\x07${s}\x1b[2J`,
];

/** Every hostile string: payload × breaker × spelling, each once (a spelling can leave a string as it was). */
export function hostileStrings(): string[] {
  const out = new Set<string>();
  for (const payload of PAYLOADS)
    for (const breaker of BREAKERS) for (const spell of SPELLINGS) out.add(spell(`${breaker}${payload}`));
  return [...out];
}
