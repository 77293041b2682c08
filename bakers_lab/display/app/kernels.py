"""The app's kernels: one per open page, ended when the page closes, culled when idle,
and never more than a fixed number alive.

Voilà starts a kernel (a Python process of a few hundred MiB) for every page
load.  :class:`BoundedKernelManager` is the kernel manager ``bakers-lab app``
gives it: before starting a kernel beyond :attr:`~BoundedKernelManager.max_kernels`
it ends the kernel idle the longest among those no page is connected to, and
if every kernel has a page, it refuses the new page with a short message
instead of starting one more process.  Idle kernels whose page is gone are
culled after ``cull_idle_timeout`` seconds (the settings are in
:func:`bakers_lab.display.app.voila_command`).

It imports Jupyter Server, so only the app's server process imports this module.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado.web import HTTPError
from traitlets import Integer

__all__ = ["BUSY", "GRACE", "BoundedKernelManager"]

#: Seconds a kernel without a page is left alone after its last activity (a page
#: being loaded has not connected yet).
GRACE = 15

#: What a page opened while every kernel is in use says (HTTP 503).
BUSY = (
    "The app is already showing as many games as it may at once; close one of its "
    "other pages, or wait a minute and reload this one."
)


class BoundedKernelManager(AsyncMappingKernelManager):
    """A kernel manager that keeps at most :attr:`max_kernels` kernels alive."""

    max_kernels = Integer(
        6, config=True, help="The most kernels (open pages) alive at once; at least 1."
    )

    async def start_kernel(  # type: ignore[override]
        self, *, kernel_id: str | None = None, path: Any = None, **kwargs: Any
    ) -> str:
        """Start a kernel as Jupyter Server does, after making room for it."""
        if kernel_id is None or kernel_id not in self:
            await self._make_room()
        kernel: str = await super().start_kernel(kernel_id=kernel_id, path=path, **kwargs)
        return kernel

    async def _make_room(self) -> None:
        """End the longest-idle kernels no page is connected to until one more fits;
        refuse (503) when every kernel left has a page.  A kernel started less than
        :data:`GRACE` seconds ago counts as having one: its page is still loading."""
        while len(self) >= max(1, self.max_kernels):
            now = utcnow()
            quiet = {k: self._quiet(k, now) for k in self.list_kernel_ids()}
            idle = [
                k for k, s in quiet.items() if s >= GRACE and not self._kernel_connections.get(k)
            ]
            if not idle:
                raise HTTPError(503, BUSY, reason="The app is busy")
            oldest = max(idle, key=quiet.__getitem__)
            self.log.info("Ending kernel %s to make room for a new page", oldest)
            await self.shutdown_kernel(oldest)  # type: ignore[no-untyped-call]

    def _quiet(self, kernel_id: str, now: datetime) -> float:
        """Seconds since the kernel was last heard from (Jupyter Server notes it)."""
        last: datetime = getattr(self.get_kernel(kernel_id), "last_activity", now)
        return (now - last).total_seconds()
