// The home page (templates/games/home.html): the new table's form proposes this browser's
// own dice seed. The page works without it (the server then makes one).
import "./seeds.js";
