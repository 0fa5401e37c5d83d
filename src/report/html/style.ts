/** report.html's style sheet, inline (the page's policy admits it by its hash). */
export const PAGE_STYLE = `
:root{--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--soft:#f6f8fa;--fail:#b3261e;--warn:#9a6700;--pass:#1a7f37;--info:#0969da;--inc:#6e5494;--accent:#0072B2;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:#fff}
body{margin:0}
#page{max-width:1180px;margin:0 auto;padding:0 20px 60px}
header.top{position:sticky;top:0;z-index:5;background:#fff;border-bottom:1px solid var(--line);padding:10px 0;display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center}
header.top h1{font-size:18px;margin:0}
nav a{margin-right:12px;color:var(--accent);text-decoration:none}
nav a:hover{text-decoration:underline}
h2{font-size:20px;margin:32px 0 8px;padding-top:8px;border-top:2px solid var(--line)}
h3{font-size:16px;margin:20px 0 6px}
h4{font-size:14px;margin:14px 0 4px}
.muted{color:var(--muted)}
.badge{display:inline-block;padding:2px 10px;border-radius:12px;font-weight:600;color:#fff;background:var(--muted);text-transform:uppercase;font-size:12px}
.badge.fail{background:var(--fail)}.badge.warn{background:var(--warn)}.badge.pass{background:var(--pass)}.badge.inconclusive{background:var(--inc)}.badge.info{background:var(--info)}
.note{background:#fff8c5;border:1px solid #d4a72c;padding:8px 12px;border-radius:6px;margin:8px 0}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:10px}
.card{border:1px solid var(--line);border-radius:8px;padding:10px 12px;background:#fff}
.card.fail{border-left:5px solid var(--fail)}.card.warn{border-left:5px solid var(--warn)}.card.pass{border-left:5px solid var(--pass)}.card.inconclusive{border-left:5px solid var(--inc)}
.card h4{margin:0 0 4px}
.card p{margin:4px 0}
table{border-collapse:collapse;margin:6px 0 10px;font-variant-numeric:tabular-nums}
th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
th{background:var(--soft);font-weight:600}
td.num,th.num{text-align:right}
tr.selected td{background:#ddf4ff}
tbody tr.clickable{cursor:pointer}
tbody tr.clickable:hover td{background:#f3f8fc}
th button.sort{all:unset;cursor:pointer;font-weight:600}
th button.sort:focus-visible,button:focus-visible{outline:2px solid var(--accent)}
.controls{display:flex;flex-wrap:wrap;gap:8px 14px;align-items:end;margin:8px 0}
.controls label{display:flex;flex-direction:column;font-size:12px;color:var(--muted)}
input,select,button{font:inherit}
button{border:1px solid var(--line);background:var(--soft);border-radius:6px;padding:2px 10px;cursor:pointer}
.pager{display:flex;gap:8px;align-items:center;margin:4px 0 12px}
.detail,section,#churn-detail,#dragon-detail,#personas-detail{scroll-margin-top:96px}
.detail{border:2px solid var(--accent);border-radius:8px;padding:10px 14px;margin:10px 0;background:#fbfdff}
.detail h3{margin-top:0}
.text{white-space:pre-wrap;overflow-wrap:anywhere;unicode-bidi:plaintext;background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:6px 10px;margin:4px 0;max-height:22em;overflow:auto}
.cols{display:flex;flex-wrap:wrap;gap:16px}
.cols>div{flex:1 1 340px;min-width:0}
.bar{display:inline-block;height:10px;background:var(--accent);vertical-align:middle;margin-right:6px}
.bar.right{background:var(--pass)}.bar.wrong{background:var(--fail)}
.ok{color:var(--pass);font-weight:600}.bad{color:var(--fail);font-weight:600}
.charts{display:flex;flex-wrap:wrap;gap:12px}
.charts figure{margin:0;border:1px solid var(--line);border-radius:6px;padding:6px;background:#fff}
.charts img{max-width:100%;height:auto;display:block}
.charts figcaption{font-size:12px;color:var(--muted)}
.matrix td.cell{padding:0;text-align:center}
.matrix td.cell button{all:unset;display:block;min-width:36px;padding:4px 6px;cursor:pointer;text-align:center}
.matrix td.cell button:focus-visible{outline:2px solid var(--accent)}
.matrix td.diag{font-weight:700}
.moves{max-height:24em;overflow:auto;display:block}
.moves tr.current td{background:#ffe9a8}
.maze{background:#fff;border:1px solid var(--line);border-radius:6px}
.replay .controls input[type=range]{width:220px}
.examples li{margin:6px 0}
code.answer{white-space:pre-wrap;overflow-wrap:anywhere;unicode-bidi:plaintext}
.grader p{margin:4px 0}
.grader-options{margin:4px 0 8px;padding-left:22px}
.grader-options li{overflow-wrap:anywhere;unicode-bidi:plaintext}
.pill{display:inline-block;border:1px solid var(--line);border-radius:10px;padding:0 8px;margin:0 4px 0 0;font-size:12px}
.missing{color:var(--fail)}
`;
