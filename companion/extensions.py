"""Flask extensions, created here and bound to the app in ``create_app``."""

from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()
