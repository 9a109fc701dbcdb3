"""Flask extensions, created here and bound to the app in ``create_app``."""

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """The declarative base of our models."""


db = SQLAlchemy(model_class=Base)
csrf = CSRFProtect()
migrate = Migrate()
