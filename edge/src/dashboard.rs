//! The ops dashboard: one self-contained page (no external assets) that polls `/stats`
//! every second and plots hit ratio, requests/s, origin requests/s, origin p50/p99 and
//! cache size over the last ten minutes, with recent purges, the most-missed URLs and
//! origin health, the cluster's figures (this edge plus its `--peers`: sums and each
//! peer's state), and the staged successors (pending, applied, the next boundary). Readable on a phone (one column below 700 px).

/// The page.
pub const DASHBOARD_HTML: &str = r##"<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Edge · live</title>
<style>
:root{--bg:#f6f7f9;--card:#fff;--fg:#1c2330;--mut:#667085;--line:#2563eb;--line2:#dc2626;--grid:#e5e7eb}
@media (prefers-color-scheme:dark){:root{--bg:#0f1419;--card:#1a2029;--fg:#e6e9ef;--mut:#98a2b3;--line:#60a5fa;--line2:#f87171;--grid:#2a313c}}
*{box-sizing:border-box}body{margin:0;font:15px/1.4 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:var(--bg);color:var(--fg)}
header{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:baseline;padding:.8rem 1rem}
h1{font-size:1.2rem;margin:0}#status{color:var(--mut)}
main{display:grid;grid-template-columns:repeat(auto-fill,minmax(330px,1fr));gap:.8rem;padding:0 1rem 1rem}
section{background:var(--card);border-radius:10px;padding:.7rem .8rem;box-shadow:0 1px 2px rgba(0,0,0,.08);min-width:0}
h2{font-size:.85rem;font-weight:600;color:var(--mut);margin:0 0 .2rem;text-transform:uppercase;letter-spacing:.04em}
.big{font-size:1.6rem;font-weight:650;font-variant-numeric:tabular-nums}
canvas{width:100%;height:120px;display:block}
table{width:100%;border-collapse:collapse;font-size:.85rem}td,th{text-align:left;padding:.2rem .3rem;border-bottom:1px solid var(--grid);overflow-wrap:anywhere}
th{color:var(--mut);font-weight:600;overflow-wrap:normal}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(8.5rem,1fr));gap:.3rem 1rem;margin:.2rem 0 .6rem;color:var(--mut);font-size:.85rem}.tiles .big{color:var(--fg)}td.n{text-align:right;font-variant-numeric:tabular-nums}
.up{color:#16a34a}.down{color:var(--line2)}.wide{grid-column:1/-1}
@media (max-width:700px){main{grid-template-columns:1fr}}
</style></head><body>
<header><h1>Edge cache · live</h1><span id="status">connecting…</span><span id="origins"></span></header>
<main>
<section class="wide"><h2>Cluster · <span id="cl-edges">–</span></h2>
<div class="tiles"><div><div class="big" id="cl-rps">–</div>requests/s</div><div><div class="big" id="cl-hits">–</div>hits/s</div><div><div class="big" id="cl-orps">–</div>origin requests/s</div><div><div class="big" id="cl-hit">–</div>hit ratio</div><div><div class="big" id="cl-size">–</div>cache</div></div>
<table><thead><tr><th>peer</th><th>state</th><th>last seen</th><th class="n">requests/s</th><th class="n">cache</th></tr></thead><tbody id="peers"></tbody></table></section>
<section><h2>Hit ratio</h2><div class="big" id="v-hit">–</div><canvas id="c-hit"></canvas></section>
<section><h2>Requests / s</h2><div class="big" id="v-rps">–</div><canvas id="c-rps"></canvas></section>
<section><h2>Origin requests / s</h2><div class="big" id="v-orps">–</div><canvas id="c-orps"></canvas></section>
<section><h2>Origin latency p50 / <span style="color:var(--line2)">p99</span> (ms)</h2><div class="big" id="v-lat">–</div><canvas id="c-lat"></canvas></section>
<section><h2>Cache size</h2><div class="big" id="v-size">–</div><canvas id="c-size"></canvas></section>
<section><h2>Staged successors</h2>
<div class="tiles"><div><div class="big" id="st-pending">–</div>pending</div><div><div class="big" id="st-applied">–</div>applied</div><div><div class="big" id="st-installed">–</div>installed</div></div>
<div>next boundary: <span id="st-next">none</span></div></section>
<section><h2>Recent purges</h2><table><thead><tr><th>when</th><th>what</th><th>mode</th><th class="n">objects</th></tr></thead><tbody id="purges"></tbody></table></section>
<section class="wide"><h2>Most-missed URLs</h2><table><thead><tr><th>URL</th><th class="n">misses</th></tr></thead><tbody id="missed"></tbody></table></section>
</main>
<script>
"use strict";
const $=id=>document.getElementById(id);
function fmtBytes(b){const u=["B","KB","MB","GB"];let i=0;while(b>=1024&&i<u.length-1){b/=1024;i++}return b.toFixed(i?1:0)+" "+u[i]}
function esc(s){return String(s).replace(/[&<>"']/g,c=>({"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#39;"}[c]))}
function css(v){return getComputedStyle(document.documentElement).getPropertyValue(v).trim()}
function plot(id,series,opts){
  const c=$(id),r=window.devicePixelRatio||1,w=c.clientWidth,h=c.clientHeight;
  if(c.width!==w*r||c.height!==h*r){c.width=w*r;c.height=h*r}
  const g=c.getContext("2d");g.setTransform(r,0,0,r,0,0);g.clearRect(0,0,w,h);
  let max=opts.max||0;for(const s of series)for(const v of s)if(v!=null&&v>max)max=v;
  if(max<=0)max=1;
  g.strokeStyle=css("--grid");g.lineWidth=1;g.fillStyle=css("--mut");g.font="10px system-ui";
  for(let i=0;i<=2;i++){const y=4+(h-14)*(i/2);g.beginPath();g.moveTo(0,y);g.lineTo(w,y);g.stroke();
    const val=max*(1-i/2);g.fillText(opts.fmt?opts.fmt(val):(+val.toPrecision(3)).toString(),2,y+10)}
  const colors=[css("--line"),css("--line2")];
  series.forEach((s,k)=>{const n=s.length;if(n<2)return;g.strokeStyle=colors[k];g.lineWidth=1.6;g.beginPath();let pen=false;
    s.forEach((v,i)=>{if(v==null){pen=false;return}const x=w*i/(n-1),y=4+(h-14)*(1-v/max);pen?g.lineTo(x,y):g.moveTo(x,y);pen=true});g.stroke()});
}
function ago(ms,now){const s=Math.max(0,Math.round((now-ms)/1000));return s<60?s+" s ago":s<3600?Math.round(s/60)+" min ago":Math.round(s/3600)+" h ago"}
async function tick(){
  try{
    const r=await fetch("stats",{cache:"no-store"});const d=await r.json();
    const s=d.series.slice(-300),last=s[s.length-1]||{};
    $("status").textContent="updated "+new Date(d.now_ms).toLocaleTimeString()+" · "+d.cache.items+(d.cache.items===1?" object":" objects");
    $("origins").innerHTML=d.origins.map(o=>`<span class="${o.up?"up":"down"}">● ${esc(o.addr)}</span>`).join(" ");
    $("v-hit").textContent=last.hit_ratio==null?"–":(last.hit_ratio*100).toFixed(1)+" %";
    $("v-rps").textContent=(last.rps??0).toLocaleString();
    $("v-orps").textContent=(last.origin_rps??0).toLocaleString();
    $("v-lat").textContent=last.origin_p50_ms==null?"–":last.origin_p50_ms.toFixed(1)+" / "+last.origin_p99_ms.toFixed(1);
    $("v-size").textContent=fmtBytes(d.cache.bytes)+" of "+fmtBytes(d.cache.limit);
    plot("c-hit",[s.map(p=>p.hit_ratio==null?null:p.hit_ratio*100)],{max:100,fmt:v=>v.toFixed(0)+"%"});
    plot("c-rps",[s.map(p=>p.rps)],{});
    plot("c-orps",[s.map(p=>p.origin_rps)],{});
    plot("c-lat",[s.map(p=>p.origin_p50_ms),s.map(p=>p.origin_p99_ms)],{});
    plot("c-size",[s.map(p=>p.cache_bytes)],{max:d.cache.limit,fmt:fmtBytes});
    const c=d.cluster;
    $("cl-edges").textContent="sum of "+c.edges+" of "+c.of+" edges";
    $("cl-rps").textContent=c.sum.rps.toLocaleString();
    $("cl-hits").textContent=c.sum.hits_ps.toLocaleString();
    $("cl-orps").textContent=c.sum.origin_rps.toLocaleString();
    $("cl-hit").textContent=c.hit_ratio==null?"–":(c.hit_ratio*100).toFixed(1)+" %";
    $("cl-size").textContent=fmtBytes(c.sum.cache_bytes);
    $("peers").innerHTML=c.peers.map(p=>`<tr><td>${esc(p.url)}</td><td class="${p.up?"up":"down"}">${p.up?"up":"down"}</td><td>${p.last_seen_ms?ago(p.last_seen_ms,d.now_ms):"never"}</td><td class="n">${p.up&&p.figures?p.figures.rps.toLocaleString():"–"}</td><td class="n">${p.up&&p.figures?fmtBytes(p.figures.cache_bytes):"–"}</td></tr>`).join("")||'<tr><td colspan="5">no peers configured</td></tr>';
    $("purges").innerHTML=d.purges.map(p=>`<tr><td>${p.at_ms?ago(p.at_ms,d.now_ms):""}</td><td>${esc(p.all?"everything":[...p.tags.map(t=>"tag "+t),...p.urls].join(", "))}${p.source==="peer"?" (peer)":""}</td><td>${p.mode}</td><td class="n">${p.matched}</td></tr>`).join("")||'<tr><td colspan="4">none yet</td></tr>';
    const st=d.staged||{};
    $("st-pending").textContent=(st.pending??0).toLocaleString();
    $("st-applied").textContent=(st.applied_total??0).toLocaleString();
    $("st-installed").textContent=(st.installed_total??0).toLocaleString();
    $("st-next").textContent=st.next_boundary_ms?new Date(st.next_boundary_ms).toLocaleTimeString()+" (in "+Math.max(0,Math.round((st.next_boundary_ms-d.now_ms)/1000))+" s)":"none";
    $("missed").innerHTML=d.most_missed.map(m=>`<tr><td>${esc(m.url)}</td><td class="n">${m.misses}</td></tr>`).join("")||'<tr><td colspan="2">none yet</td></tr>';
  }catch(e){$("status").textContent="cannot reach the edge: "+e}
}
tick();setInterval(tick,1000);
</script></body></html>
"##;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_loads_nothing_from_elsewhere() {
        assert!(!DASHBOARD_HTML.contains("http://"));
        assert!(!DASHBOARD_HTML.contains("https://"));
        assert!(!DASHBOARD_HTML.contains("src="));
        assert!(DASHBOARD_HTML.contains("name=\"viewport\""));
        assert!(DASHBOARD_HTML.contains("id=\"peers\""));
        assert!(DASHBOARD_HTML.contains("id=\"st-next\""));
    }
}
