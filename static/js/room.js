// The table's page (templates/games/room.html). Small comforts; the page works without
// them. Each module below does one job and listens for the page's events itself; they run
// in this order, after the page is parsed and before DOMContentLoaded.
import "./room/share.js";
import "./room/keys.js";
import "./room/socket.js";
import "./room/dice.js";
import "./seeds.js";
import "./room/clock.js";
import "./room/notifications.js";
import "./room/layout.js";
import "./room/chat.js";
