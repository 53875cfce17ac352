/* --color[=WHEN]: SystemTap's coloured diagnostics. */
#ifndef TAPC_COLOR_H
#define TAPC_COLOR_H

#include "diag.h"

/*
 * The colours for diagnostics under --color mode (enum color_mode of
 * options.h: auto, never, always), or NULL for none: never; auto when
 * stderr is not a terminal; or SYSTEMTAP_COLORS set but empty or
 * invalid.  Without SYSTEMTAP_COLORS, stap's defaults.
 */
const struct diag_colors *diag_colors_choose(int mode);

#endif
