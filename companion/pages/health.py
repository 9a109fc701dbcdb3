"""``GET /health``: the app answers and its database is reachable (for a load balancer)."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify
from sqlalchemy import text

from companion.store.db import db

bp = Blueprint("health", __name__)


@bp.get("/health")
def health() -> Response | tuple[Response, int]:
    """``{"status": "ok"}``, or 503 when the database does not answer."""
    try:
        with db.engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception:  # any database failure means: not ready
        return jsonify(status="unavailable"), 503
    return jsonify(status="ok")
