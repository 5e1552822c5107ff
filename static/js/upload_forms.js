// Upload forms: "Add another reference" rows on the test set form, and a name
// field per chosen file on the output form. Without this script both forms
// still work: one reference row; names from the files.
(function () {
  "use strict";

  function setUpReferenceRows() {
    var rows = document.getElementById("reference-rows");
    var add = document.getElementById("add-reference");
    if (!rows || !add) return;
    var max = parseInt(rows.dataset.maxRows, 10) || 20;
    add.hidden = false;
    add.addEventListener("click", function () {
      var all = rows.querySelectorAll(".reference-row");
      if (all.length >= max) {
        add.disabled = true;
        return;
      }
      var number = all.length + 1;
      var row = all[all.length - 1].cloneNode(true);
      row.querySelectorAll(".error").forEach(function (e) { e.remove(); });
      row.querySelectorAll("input").forEach(function (input) {
        var base = input.name.replace(/_\d+$/, "");
        input.name = base + "_" + number;
        input.id = "id_" + input.name;
        input.value = "";
      });
      row.querySelectorAll("label").forEach(function (label) {
        var isLabel = label.htmlFor.indexOf("reference_label") !== -1;
        var base = isLabel ? "reference_label_" : "reference_file_";
        label.htmlFor = "id_" + base + number;
        label.textContent = isLabel ? "Label of reference " + number : "Reference " + number;
      });
      rows.appendChild(row);
      if (number >= max) add.disabled = true;
    });
  }

  function systemName(fileName) {
    var name = fileName.replace(/\.gz$/i, "");
    var dot = name.lastIndexOf(".");
    return dot > 0 ? name.slice(0, dot) : name;
  }

  function setUpSystemNames() {
    var picker = document.getElementById("id_hypothesis_file");
    var box = document.getElementById("system-names");
    var single = document.getElementById("single-system-name");
    if (!picker || !box || !single) return;
    picker.addEventListener("change", function () {
      box.querySelectorAll(".system-name-row").forEach(function (r) { r.remove(); });
      var files = Array.prototype.slice.call(picker.files || []);
      var several = files.length > 1;
      box.hidden = !several;
      single.hidden = several;
      if (!several) return;
      files.forEach(function (file, i) {
        var row = document.createElement("div");
        row.className = "system-name-row";
        var label = document.createElement("label");
        label.htmlFor = "id_system_name_" + (i + 1);
        label.textContent = file.name;
        var input = document.createElement("input");
        input.type = "text";
        input.maxLength = 200;
        input.name = "system_name_" + (i + 1);
        input.id = label.htmlFor;
        if (/\.(sgm|sgml|xml|tsv|zip)(\.gz)?$/i.test(file.name)) {
          input.placeholder = "as named in the file";  // its sysid / system attribute
        } else {
          input.value = systemName(file.name);
        }
        row.appendChild(label);
        row.appendChild(input);
        box.appendChild(row);
      });
    });
  }

  setUpReferenceRows();
  setUpSystemNames();
})();
