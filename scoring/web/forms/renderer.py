"""The form renderer: one field layout for every form (``{{ field.as_field_group }}`` renders
``templates/forms/field.html``: label, widget, the errors in a box with a stable id that htmx
previews swap, and the help text)."""
from django.forms.renderers import TemplatesSetting


class FormRenderer(TemplatesSetting):
    """Django's templates-setting renderer with the project's field template."""

    field_template_name = "forms/field.html"
