// The island loader's entry. The loader itself (load, idle, visible and media
// strategies, one chunk per island) is built in the web issue; until then this
// entry only marks the page as having JavaScript, so CSS can tell.
document.documentElement.classList.add('js');
