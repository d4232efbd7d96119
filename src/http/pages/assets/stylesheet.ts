// The hosted pages' one stylesheet, served from the service itself (no third-party requests): mobile first,
// light and dark by the system's choice, touch targets of at least 44 px, a focus ring that always shows,
// and layouts that mirror for right-to-left languages while numbers and phone inputs stay left to right.
// The console shares the colours and controls, with its own wider layout.
const COLOURS = `:root{color-scheme:light dark;--bg:#f4f5f7;--card:#fff;--text:#16181d;--muted:#525a66;--line:#c4cad3;
--accent:#1d4ed8;--on-accent:#fff;--error:#b3261e;--error-bg:#fdecea;--notice:#0f5132;--notice-bg:#e6f4ea;--focus:#1d4ed8}
@media (prefers-color-scheme:dark){:root{--bg:#0f1115;--card:#1a1d23;--text:#e8eaed;--muted:#aab1bc;--line:#454c57;
--accent:#8ab4f8;--on-accent:#0b1220;--error:#f4b8b4;--error-bg:#3a1d1b;--notice:#a8e0bd;--notice-bg:#13291d;--focus:#8ab4f8}}`;

const BASE = `*,*::before,*::after{box-sizing:border-box}html{-webkit-text-size-adjust:100%}
body{margin:0;min-height:100vh;background:var(--bg);color:var(--text);overflow-wrap:anywhere;
font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans Arabic","Noto Sans Devanagari","Noto Sans Bengali",sans-serif}
a{color:var(--accent);text-underline-offset:.15em}:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
h1{font-size:1.5rem;line-height:1.25;margin:.25rem 0 1rem}p{margin:0 0 1rem}
label{display:block;font-weight:600;margin:0 0 .25rem}
input,select,textarea{display:block;width:100%;min-height:44px;padding:.5rem .75rem;font:inherit;color:var(--text);
background:var(--card);border:1px solid var(--line);border-radius:8px}
input[type=checkbox]{display:inline-block;width:1.25rem;min-height:1.25rem;vertical-align:middle}
input[type=file]{padding:.55rem .5rem}input[aria-invalid=true]{border-color:var(--error);border-width:2px}
input[type=tel],input[inputmode=numeric]{direction:ltr;text-align:left}
button{display:inline-flex;align-items:center;justify-content:center;min-height:44px;min-width:44px;padding:.55rem 1.25rem;
font:inherit;font-weight:600;color:var(--on-accent);background:var(--accent);border:1px solid var(--accent);border-radius:8px;cursor:pointer}
button.secondary{color:var(--accent);background:transparent}
button:disabled,button:disabled:hover{color:var(--muted);background:var(--bg);border:1px dashed var(--line);cursor:not-allowed}
button.danger{color:#fff;background:#b91c1c;border-color:#b91c1c}button.danger:hover{background:#991b1b}
.error{color:var(--error);background:var(--error-bg);border:1px solid var(--error);border-radius:8px;padding:.75rem}
.notice{color:var(--notice);background:var(--notice-bg);border:1px solid var(--notice);border-radius:8px;padding:.75rem}`;

const HOSTED = `main.card{max-width:28rem;margin:0 auto;padding:1.5rem 1rem;background:var(--card)}
@media (min-width:40rem){body:not(.console){padding:2.5rem 1rem}main.card{border:1px solid var(--line);border-radius:12px;padding:2rem}}
.field{margin:0 0 1rem}.hint{margin:0 0 .35rem;color:var(--muted);font-size:.9rem}
.field-error{color:var(--error);font-weight:600;margin:.35rem 0 0}
main.card form>button{width:100%;margin:.5rem 0 1rem}.actions{display:flex;gap:.75rem;flex-wrap:wrap;margin:.5rem 0 1rem}
.actions button{flex:1 1 8rem;margin:0}.phone{display:flex;gap:.5rem;direction:ltr}.phone select{flex:0 1 9.5rem;min-width:0}
.phone .flag{flex:0 0 auto;align-self:center;font-size:1.5rem;line-height:1}.phone .flag:empty{display:none}
.phone input{flex:1 1 10rem;min-width:0}.brand{display:flex;align-items:center;gap:.75rem;margin:0 0 1rem}
.brand img{width:48px;height:48px;border-radius:10px;object-fit:contain}.brand strong{font-size:1.1rem}
.muted{color:var(--muted)}ul.scopes{padding-inline-start:1.25rem}ul.scopes li{margin:.35rem 0}
.who{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 1rem;margin:0 0 1rem}.who p{margin:0}.links{display:flex;flex-wrap:wrap;gap:.25rem 1rem;font-size:.95rem}.links a{display:inline-block;padding:.6rem 0}
footer.language{max-width:28rem;margin:0 auto;padding:1rem 1rem 2rem}footer.language form{display:flex;gap:.5rem;align-items:center}
footer.language select{flex:1 1 auto;min-width:0}footer.language button{flex:0 0 auto;white-space:nowrap}
.visually-hidden{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
main.card form.who>button{width:auto;margin:0}
main.card section{border-top:1px solid var(--line);padding-top:1rem;margin-top:1rem}h2{font-size:1.15rem;margin:0 0 .75rem}
ul.items{list-style:none;padding:0;margin:0 0 1rem}ul.items li{padding:.5rem 0;border-bottom:1px solid var(--line)}
form.row{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}form.row span{flex:1 1 12rem}form.row label{flex:1 0 100%;margin:0}
form.row input{flex:1 1 10rem;width:auto;min-width:0}main.card form.row>button{width:auto;margin:0}
a.button{display:inline-flex;align-items:center;min-height:44px;padding:.55rem 1.25rem;font-weight:600;color:var(--on-accent);background:var(--accent);border-radius:8px;text-decoration:none}
ol.codes{direction:ltr;columns:2;font-size:1.05rem;padding-inline-start:1.5rem}ol.codes li{margin:.35rem 0}`;

const CONSOLE = `body.console{font-size:15px}
.console header{background:#1f2937;color:#fff;padding:.5rem 1rem;display:flex;gap:.5rem 1.2rem;align-items:center;flex-wrap:wrap}
.console header nav{display:flex;gap:.25rem 1rem;flex-wrap:wrap}.console header a{color:#e5e7eb;text-decoration:none;display:inline-block;padding:.6rem 0}
.console header a[aria-current]{color:#fff;font-weight:700;text-decoration:underline}.console header form{margin-inline-start:auto}
.console header button{color:#fff;background:transparent;border-color:#9ca3af}
.console main{max-width:72rem;margin:1.2rem auto;padding:0 1rem}.console h2{font-size:1.1rem;margin-top:1.6rem}
.console .table{overflow-x:auto}.console table{border-collapse:collapse;width:100%;background:var(--card)}
.console th,.console td{border:1px solid var(--line);padding:.35rem .5rem;text-align:start;vertical-align:top;font-size:.9rem}
.console th{background:var(--bg)}
@media (min-width:40rem){.console th,.console td{overflow-wrap:normal}.console td code{white-space:nowrap}}.console label{margin:.6rem 0 .15rem}.console input,.console select,.console textarea{max-width:36rem}
.console label.inline{display:inline-flex;gap:.35rem;align-items:center;font-weight:400;margin-inline-end:1rem;min-height:44px}
.console form.inline{display:inline}.console form.block>button{display:block;margin-top:1rem}
.console form.search input[type=search]{width:100%;max-width:36rem}.console form.search>button{display:block;margin-top:.8rem}
.console form.search .filters{display:flex;flex-wrap:wrap;gap:0 1rem}
.console fieldset{border:1px solid var(--line);border-radius:8px;max-width:36rem}
.console .secret{font:1rem monospace;background:var(--notice-bg);border:1px solid var(--line);padding:.6rem;word-break:break-all}
.console .charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(20rem,1fr));gap:1rem}
.console figure{margin:0;background:var(--card);border:1px solid var(--line);border-radius:8px;padding:.6rem}
.console figcaption{font-weight:600}.console .photos img{max-width:min(22rem,100%);max-height:16rem;border:1px solid var(--line);margin:.3rem}
.console svg{display:block;max-width:40rem}.console svg text{fill:var(--muted);font-size:10px}.console svg .bar{fill:var(--accent)}
.console svg .bar.none{fill:var(--line)}.console svg .axis{stroke:var(--muted)}
.console svg .bar.refused{fill:var(--error)}.console svg polyline.rate{fill:none;stroke:var(--text);stroke-width:1.5}
.console svg circle.rate{fill:var(--text)}.console svg .open{fill:var(--error-bg)}.console svg text.open-label{fill:var(--error)}
.console svg .open-edge{stroke:var(--error);stroke-dasharray:3 2}
.console button{white-space:nowrap}.console .confirm{border:2px solid #b91c1c;border-radius:8px;padding:1rem;max-width:36rem}
.console .confirm a{display:inline-block;padding:.6rem 0;margin-inline-start:1rem}
@media (max-width:40rem){.console .table table,.console .table tbody,.console .table tr,.console .table td{display:block;width:auto}
.console .table thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap}
.console .table tr{border:1px solid var(--line);border-radius:8px;margin-bottom:.6rem;background:var(--card)}
.console .table td{border:0;border-bottom:1px solid var(--line);overflow-wrap:anywhere}.console .table td:last-child{border-bottom:0}
.console .table td::before{content:attr(data-label);display:block;font-weight:600;color:var(--muted);font-size:.8rem}}`;

export const STYLESHEET = `${COLOURS}\n${BASE}\n${HOSTED}\n${CONSOLE}\n`;
