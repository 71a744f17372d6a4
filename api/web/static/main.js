// The web table's entry point: runs the page named by <main data-page> (api/web/templates).
import {ApiError} from "./api.js";
import {say} from "./dom.js";
import {listPage} from "./list.js";
import {playPage} from "./play.js";
import {replayPage} from "./replay.js";
import {notFoundOr, watchPage} from "./watch.js";

const app = document.getElementById("app");
const pages = {list: listPage, watch: watchPage, replay: replayPage, play: playPage};
pages[app.dataset.page](app, app.dataset.game).catch((error) => {
  if (error instanceof ApiError) notFoundOr(app, error);
  else say(`Could not load: ${error.message}`);
});
